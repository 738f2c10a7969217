"""The one PNG encoder every renderer uses.

``optimize=True`` tried every zlib strategy and was 77-90 % of a render (a late 6-player
Orbits map: 258 ms of 304); ``compress_level=1`` costs a few tens of ms for files about a
quarter larger, which Discord takes without complaint. Palette quantising was measured too: a
little smaller and no faster, at the price of exact colours, so it is not used."""

from __future__ import annotations

import io

from PIL import Image

COMPRESS_LEVEL = 1


def encode(image: Image.Image) -> bytes:
    """PNG bytes of ``image``, encoded fast."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()
