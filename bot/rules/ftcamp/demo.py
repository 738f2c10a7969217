"""The built-in demo scenario (a copy of examples/ftcamp/example.toml, checked by a test)."""

from __future__ import annotations

from bot.rules.ftcamp.model import Craft, Group, Player
from bot.rules.ftcamp.scenario import export_scenario, load_scenario

DEMO_TOML = """\
# FTCamp example scenario (docs/rules/ftcamp.md, "Scenario files").
# Three players; seats 1 and 3 are allied. With every group on `hold` the first round has
# three contested hexes: 0304 (Tau Ceti), 0505 (deep space) and 0602 (Barnard).

# Alliances are pairs of seats (E-12); top-level keys must come before the first [table].
alliances = [[1, 3]]

[campaign]
name = "Example: the Tau Ceti border"
round = 1

[rules]
signature_limits = [20, 40, 80, 160]   # E-4 signature classes 1..4 by MASS, 5 above
group_sizes = [3, 6, 10, 15]           # E-8 upper bounds: Task Force .. War Group, Armada above
missing_engage_order = "SF"            # E-10 default at the deadline

[map]
columns = 8
rows = 6

[[map.systems]]
hex = "0304"
name = "Tau Ceti"
system_sector = "A-2"                  # E-1: the local government

[[map.systems]]
hex = "0602"
name = "Barnard"
system_sector = "B-4"

[[players]]
seat = 1
name = "Terran Union"

[[players]]
seat = 2
name = "Kravak Horde"

[[players]]
seat = 3
name = "Free Colonies"

# --- groups: order = "move 0305" | "hold" | "hold-special maintain|tug|other" |
#     "maintain-orbit" | "support <group>" | "patrol"
[[groups]]
name = "Home Guard"
owner = 1
hex = "0304"
sector = "A-2"
order = "maintain-orbit"
[[groups.craft]]
name = "Bastion"
mass = 60
thrust = 4
armed = true
sensors = 2
[[groups.craft]]
name = "Rampart"
mass = 40
thrust = 4
armed = true

[[groups]]
name = "Raiders"
owner = 2
hex = "0304"
sector = "C-7"
[[groups.craft]]
name = "Fang"
mass = 50
thrust = 6
armed = true
decoys = 2
[[groups.craft]]
name = "Claw"
mass = 50
thrust = 6
armed = true
weasel = 2
[[groups.craft]]
name = "Shade"
mass = 30
thrust = 6
armed = true
stealth = 2

[[groups]]
name = "Vanguard"
owner = 1
hex = "0505"
[[groups.craft]]
name = "Resolute"
mass = 90
thrust = 4
armed = true
sensors = 1
[[groups.craft]]
name = "Valiant"
mass = 60
thrust = 4
armed = true
[[groups.craft]]
name = "Vigilant"
mass = 60
thrust = 4
armed = true
[[groups.craft]]
name = "Swift"
mass = 24
thrust = 6
armed = true
ecm = true
[[groups.craft]]
name = "Keen"
mass = 24
thrust = 6
armed = true

[[groups]]
name = "Hunters"
owner = 2
hex = "0505"
sector = "D-3"
[[groups.craft]]
name = "Talon"
mass = 70
thrust = 5
armed = true
[[groups.craft]]
name = "Gash"
mass = 70
thrust = 5
armed = true
ftl = "crippled"
[[groups.craft]]
name = "Rend"
mass = 40
thrust = 6
armed = true
[[groups.craft]]
name = "Maw"
mass = 40
thrust = 6
armed = true

[[groups]]
name = "Convoy"
owner = 3
hex = "0505"
diplomat = true
[[groups.craft]]
name = "Ambassador"
mass = 30
thrust = 2

[[groups]]
name = "Pickets"
owner = 2
hex = "0602"
order = "patrol"
[[groups.craft]]
name = "Scout One"
mass = 20
thrust = 6
armed = true
sensors = 2

[[groups]]
name = "Reserve Wing"
owner = 2
hex = "0702"
order = "patrol"
[[groups.craft]]
name = "Spear"
mass = 45
thrust = 5
armed = true

[[groups]]
name = "Strike"
owner = 3
hex = "0602"
[[groups.craft]]
name = "Lance"
mass = 40
thrust = 5
armed = true
[[groups.craft]]
name = "Pike"
mass = 40
thrust = 5
armed = true

[[groups]]
name = "Survey"
owner = 1
hex = "0602"
lost = true
[[groups.craft]]
name = "Pathfinder"
mass = 16
thrust = 4
sensors = 3

# --- statics sit in a fixed orbit-sector (E-2); kind = "military" | "civilian"
[[statics]]
name = "Tau Ceti Station"
owner = 1
hex = "0304"
sector = "A-2"
kind = "military"
[[statics.craft]]
name = "Fort Hope"
mass = 200
armed = true
command = true

[[statics]]
name = "Tau Ceti Docks"
owner = 1
hex = "0304"
sector = "B-1"
kind = "civilian"
show_civilian = true
[[statics.craft]]
name = "Yard"
mass = 120

[[statics]]
name = "Barnard Outpost"
owner = 2
hex = "0602"
sector = "B-4"
kind = "military"
[[statics.craft]]
name = "Spire"
mass = 100
armed = true
command = true
"""


def demo_scenario(seats: int) -> str:
    """The demo for 3 seats; with 2 the Free Colonies leave, with more each extra seat gets a
    lone scout far from the fighting."""
    if seats == 3:
        return DEMO_TOML
    state = load_scenario(DEMO_TOML)
    if seats < 3:
        state.players = [p for p in state.players if p.seat <= seats]
        state.groups = {n: g for n, g in state.groups.items() if g.owner <= seats}
        state.alliances = []
    for seat in range(4, seats + 1):
        state.players.append(Player(seat=seat, name=f"Independents {seat}"))
        name = f"Scout {seat}"
        state.groups[name] = Group(name=name, owner=seat, hex=f"{seat:02d}06",
                                   craft=[Craft(name=f"Wanderer {seat}", mass=20, thrust=5)])
    return export_scenario(state)
