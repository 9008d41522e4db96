#!/usr/bin/env python3
"""Writes crates/agent-input/tests/data/images/: tiny real images whose width and height the image
header reader is tested on (crates/agent-input/src/image/tests.rs).

Each file is made by Pillow, then opened again with Pillow, which must read back the size asked
for: the expected sizes in the tests are the ones written here, never the reader's own answers.
The name of each file carries its size (`<what>-<width>x<height>.<ext>`).

Run (once, the images are committed):
  python3 -m venv target/py/venv && target/py/venv/bin/pip install pillow==13.0.0
  target/py/venv/bin/python scripts/gen-image-fixtures.py
"""

import io
import pathlib

from PIL import Image

OUT = pathlib.Path(__file__).resolve().parent.parent / "crates/agent-input/tests/data/images"


def save(name, image, **options):
    buffer = io.BytesIO()
    image.save(buffer, **options)
    data = buffer.getvalue()
    again = Image.open(io.BytesIO(data))
    assert again.size == image.size, (name, again.size, image.size)
    (OUT / name).write_bytes(data)
    print(f"{name}: {len(data)} bytes")


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    rgb = lambda w, h: Image.new("RGB", (w, h), (200, 90, 30))  # noqa: E731
    rgba = lambda w, h: Image.new("RGBA", (w, h), (20, 90, 200, 128))  # noqa: E731

    save("png-wide-9000x100.png", rgb(9000, 100), format="PNG", optimize=True)
    save("png-gray-1x1.png", Image.new("L", (1, 1), 7), format="PNG")
    save("png-tall-100x8001.png", rgb(100, 8001), format="PNG", optimize=True)

    save("jpeg-baseline-640x480.jpg", rgb(640, 480), format="JPEG", quality=20)
    save("jpeg-progressive-300x200.jpg", rgb(300, 200), format="JPEG", quality=20, progressive=True)
    save("jpeg-gray-17x33.jpg", Image.new("L", (17, 33), 90), format="JPEG", quality=20)
    exif = Image.Exif()
    exif[0x010E] = "an image description " * 1500  # ImageDescription: about 31 KB of EXIF
    save("jpeg-exif-120x80.jpg", rgb(120, 80), format="JPEG", quality=20, exif=exif)

    save("gif-17x9.gif", Image.new("P", (17, 9), 3), format="GIF")

    save("webp-lossy-33x21.webp", rgb(33, 21), format="WEBP", quality=20)
    save("webp-lossless-45x30.webp", rgb(45, 30), format="WEBP", lossless=True)
    save("webp-extended-9000x100.webp", rgba(9000, 100), format="WEBP", quality=20)
    save("webp-exif-64x48.webp", rgb(64, 48), format="WEBP", quality=20, exif=Image.Exif().tobytes())


if __name__ == "__main__":
    main()
