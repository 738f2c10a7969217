"""The service is composition, not inheritance (issue 17 item 1): every class of
bot/campaign stands alone (its MRO is itself and ``object``, or a value type's own base), no
hook is chosen by ``super()``, and no collaborator reaches into another's private names."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from enum import Enum
from pathlib import Path
from typing import Any, Generic, Protocol

import pytest
from pydantic import BaseModel

import bot.campaign
from bot.campaign import CampaignService
from bot.campaign.core import ServiceCore
from bot.campaign.panel_delivery import PanelDelivery
from bot.campaign.steps import StepEngine
from storage.campaigns import CampaignHead

PACKAGE = Path(bot.campaign.__file__).parent
# what a value type (not a collaborator) may stand on: data, errors, typing helpers, and the
# one campaign record whose fields the service's CampaignInfo shares (issue 17 item 7)
VALUE_BASES: tuple[type, ...] = (BaseModel, BaseException, Enum, tuple, dict, str, int,
                                 CampaignHead)
TYPING_BASES = {Generic, Protocol}


def _modules() -> list[Any]:
    return [importlib.import_module(f"bot.campaign.{m.name}")
            for m in pkgutil.iter_modules([str(PACKAGE)])]


def _classes() -> list[type]:
    found = []
    for module in _modules():
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__:
                found.append(cls)
    return found


def test_every_class_of_the_package_stands_alone() -> None:
    classes = _classes()
    assert len(classes) > 30  # (the walk found the package)
    for cls in classes:
        if issubclass(cls, VALUE_BASES):
            # a model, error or enum: never a subclass of another class of the package
            inherited = [b for b in cls.__mro__[1:] if b.__module__.startswith("bot.campaign")]
            assert not inherited, f"{cls.__qualname__} inherits {inherited}"
            continue
        mro = [b for b in cls.__mro__ if b not in TYPING_BASES]
        assert mro[0] is cls and mro[-1] is object and len(mro) == 2 or (
            Protocol in cls.__mro__), f"{cls.__module__}.{cls.__qualname__}: {cls.__mro__}"


async def test_the_service_holds_collaborators_each_of_its_own_class(db: Any) -> None:
    service = CampaignService(db)
    assert CampaignService.__mro__ == (CampaignService, object)
    engine = service.engine
    assert isinstance(engine, StepEngine) and StepEngine.__mro__ == (StepEngine, object)
    assert isinstance(engine.core, ServiceCore) and ServiceCore.__mro__ == (ServiceCore, object)
    assert isinstance(engine.delivery, PanelDelivery)
    assert PanelDelivery.__mro__ == (PanelDelivery, object)
    held = [engine.core, engine.delivery, engine.war, *vars(service).values()]
    collaborators = [c for c in held if type(c).__module__.startswith("bot.campaign")]
    assert len(collaborators) >= 12
    for c in collaborators:
        assert type(c).__mro__ == (type(c), object), type(c)
    assert engine.war is service.war  # the war listens to the engine, set once


def test_no_hook_is_chosen_by_super() -> None:
    for path in PACKAGE.glob("*.py"):
        assert "super()" not in path.read_text(encoding="utf-8"), path.name


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_no_collaborator_touches_another_ones_private_names(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = importlib.import_module(f"bot.campaign.{path.stem}")
    reached = []
    for node in ast.walk(tree):
        # `<an object but self>._name`: another object's private name (a module's private
        # helper is the module's business, not a collaborator's)
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and (
                    node.value.id in ("self", "cls")
                    or inspect.ismodule(getattr(module, node.value.id, None))))):
            reached.append(f"{ast.unparse(node)} (line {node.lineno})")
    assert not reached, reached
