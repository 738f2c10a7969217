"""The built-in demo scenario: the forces of examples/ftcamp/example.toml written with the
builder (a test checks that the two agree)."""

from __future__ import annotations

from bot.rules.ftcamp.build import craft, group, scenario, static, system
from bot.rules.ftcamp.model import Craft, Group, Player, State
from bot.rules.ftcamp.scenario import export_scenario


def demo_state() -> State:
    """Three players, seats 1 and 3 allied; with every group on `hold` the first round has
    three contested hexes: 0304 (Tau Ceti), 0505 (deep space) and 0602 (Barnard)."""
    groups = [
        group("Home Guard", 1, "0304",
              craft("Bastion", 60, 4, design="vanguard", armed=True, sensors=2),
              craft("Rampart", 40, 4, design="harrier", armed=True),
              sector="A-2", order="maintain-orbit"),
        group("Raiders", 2, "0304",
              craft("Fang", 50, 6, design="wolfhound", armed=True, decoys=2),
              craft("Claw", 50, 6, design="jackal", armed=True, weasel=2),
              craft("Shade", 30, 6, design="lynx", armed=True, stealth=2), sector="C-7"),
        group("Vanguard", 1, "0505",
              craft("Resolute", 90, 4, design="vanguard", armed=True, sensors=1),
              craft("Valiant", 60, 4, design="harrier", armed=True),
              craft("Vigilant", 60, 4, design="harrier", armed=True),
              craft("Swift", 24, 6, design="kestrel", armed=True, ecm=True),
              craft("Keen", 24, 6, design="kestrel", armed=True)),
        group("Hunters", 2, "0505",
              craft("Talon", 70, 5, design="wolfhound", armed=True),
              craft("Gash", 70, 5, design="jackal", armed=True, ftl="crippled"),
              craft("Rend", 40, 6, design="lynx", armed=True),
              craft("Maw", 40, 6, design="lynx", armed=True), sector="D-3"),
        group("Convoy", 3, "0505", craft("Ambassador", 30, 2, design="kestrel"),
              diplomat=True),
        group("Pickets", 2, "0602",
              craft("Scout One", 20, 6, design="kestrel", armed=True, sensors=2),
              order="patrol"),
        group("Reserve Wing", 2, "0702", craft("Spear", 45, 5, design="lynx", armed=True),
              order="patrol"),
        group("Strike", 3, "0602", craft("Lance", 40, 5, design="harrier", armed=True),
              craft("Pike", 40, 5, design="kestrel", armed=True)),
        group("Survey", 1, "0602",
              craft("Pathfinder", 16, 4, design="kestrel", sensors=3), lost=True),
        static("Tau Ceti Station", 1, "0304", "A-2",
               craft("Fort Hope", 200, design="vanguard", armed=True, command=True)),
        static("Tau Ceti Docks", 1, "0304", "B-1", craft("Yard", 120, design="harrier"),
               kind="civilian", show_civilian=True),
        static("Barnard Outpost", 2, "0602", "B-4",
               craft("Spire", 100, design="wolfhound", armed=True, command=True)),
    ]
    return scenario("Example: the Tau Ceti border", (8, 6),
                    ["Terran Union", "Kravak Horde", "Free Colonies"], groups,
                    systems=[system("0304", "Tau Ceti", "A-2"),
                             system("0602", "Barnard", "B-4")],
                    alliances=[(1, 3)])


def demo_scenario(seats: int) -> str:
    """The demo as a scenario file for 3 seats; with 2 the Free Colonies leave, with more
    each extra seat gets a lone scout far from the fighting."""
    state = demo_state()
    if seats < 3:
        state.players = [p for p in state.players if p.seat <= seats]
        state.groups = {n: g for n, g in state.groups.items() if g.owner <= seats}
        state.alliances = []
    for seat in range(4, seats + 1):
        state.players.append(Player(seat=seat, name=f"Independents {seat}"))
        name = f"Scout {seat}"
        state.groups[name] = Group(name=name, owner=seat, hex=f"{seat:02d}06",
                                   craft=[Craft(name=f"Wanderer {seat}", mass=20, thrust=5,
                                                     design="kestrel")])
    return export_scenario(state)
