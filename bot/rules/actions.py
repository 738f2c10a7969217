"""The typed form of a player's action (issue 17, item 4).

An action is stored and sent as the flat dict a panel builds (``{"type": ..., <field>:
<text or list of texts>}``, bot.rules.base); that stored form (event log, sealed orders in
the database) does not change. Each rule set declares one pydantic model per kind of action
(``ActionModel`` subclasses with a ``Literal`` type) and reads the dict into its model at its
boundary (``act``, ``resolve``, ``check``); its code then dispatches on the model's class,
never on a ``type`` string. A field the panel fills from a Select keeps the raw value
(``ActionValue``): the rule set's own checks refuse a wrong one in its own words (P-32).
Pure; imports nothing of a rule set.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, PlainSerializer, ValidationError

from bot.errors import InvalidInput
from bot.rules.base import ActionData, ActionValue, YesNo


def read_flag(value: object) -> bool:
    # the reading the rule sets always had: yes, true or 1 (any case) is yes, all else no
    return value if isinstance(value, bool) else str(value).lower() in ("yes", "true", "1")


# A yes/no field: a bool in the model, stored as YesNo (what a Select sends back).
Flag = Annotated[bool, BeforeValidator(read_flag), PlainSerializer(lambda v: YesNo.of(v).value)]


class ActionModel(BaseModel):
    """One kind of action. Subclasses narrow ``type`` to a ``Literal``; unknown keys are
    ignored as they always were, unless a model keeps them (``extra="allow"``: fields named
    after what they set, such as FTCamp's ``group:<name>``)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    # A kind whose types share a prefix (FTCamp's "place-A", "place-B"...) declares the
    # prefix here and keeps ``type: str``.
    type_prefix: ClassVar[str] = ""

    type: str

    def stored(self) -> dict[str, ActionValue]:
        """The stored form: the dict a panel would have sent for this action."""
        return self.model_dump(mode="json", exclude_unset=True) | {"type": self.type}

    def given(self, name: str, default: ActionValue = None) -> ActionValue:
        """A field kept by name (an ``extra="allow"`` model); ``default`` when absent."""
        return (self.model_extra or {}).get(name, default)

    def extras(self) -> dict[str, ActionValue]:
        """The fields kept by name, in the order they came."""
        return dict(self.model_extra or {})


class OtherAction(ActionModel):
    """An action of a type the rule set does not know: read as it came, so the rule set's
    own refusal (which names what is allowed) answers it."""

    model_config = ConfigDict(extra="allow", frozen=True)

    type: Any = None


A = TypeVar("A", bound=ActionModel)


class ActionKinds(Generic[A]):
    """A rule set's kinds of action: reads a stored action into the model of its type
    (``OtherAction`` for a type it does not know)."""

    def __init__(self, *models: type[A]) -> None:
        self.models: dict[str, type[A]] = {}
        self.prefixed: list[type[A]] = []
        for model in models:
            if model.type_prefix:
                self.prefixed.append(model)
                continue
            for kind in _literal_values(model):
                self.models[kind] = model

    def model_for(self, kind: object) -> type[A] | type[OtherAction]:
        if not isinstance(kind, str):
            return OtherAction
        if kind in self.models:
            return self.models[kind]
        return next((m for m in self.prefixed if kind.startswith(m.type_prefix)), OtherAction)

    def read(self, data: ActionData | ActionModel) -> A | OtherAction:
        if isinstance(data, ActionModel):
            return data  # type: ignore[return-value]
        model = self.model_for(data.get("type"))
        try:
            return model.model_validate(dict(data))
        except ValidationError as exc:  # only the shape: values are the rule set's to judge
            raise InvalidInput(f"An action of type '{data.get('type')}' is not well formed: "
                               f"{exc.errors()[0]['msg']}.") from None


def _literal_values(model: type[ActionModel]) -> tuple[str, ...]:
    annotation = model.model_fields["type"].annotation
    values = getattr(annotation, "__args__", ())
    if not values or not all(isinstance(v, str) for v in values):
        raise TypeError(f"{model.__name__}.type must be a Literal of action types")
    return tuple(values)
