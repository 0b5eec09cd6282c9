#!/usr/bin/env python3
"""What a PNG screenshot shows, by colour (stdlib only: zlib and struct).

usage: pngcolors.py FILE.png [RRGGBB...]
prints JSON: width, height, "colors" (distinct colours), "chromatic" (distinct
colours that are not grey, each on at least 20 pixels: drawing, not text),
and for each RRGGBB given the number of pixels of exactly that colour.
"""
import json, struct, sys, zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("%s: not a PNG" % path)
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                sys.exit("%s: only 8-bit RGB/RGBA, not interlaced (depth %d type %d)" %
                         (path, depth, ctype))
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    w, h, bpp, rows = decode(sys.argv[1])
    counts = {}
    for line in rows:
        for x in range(0, len(line), bpp):
            px = line[x:x + 3]
            counts[px] = counts.get(px, 0) + 1
    chromatic = [c for c, n in counts.items() if n >= 20 and max(c) - min(c) > 40]
    out = {"width": w, "height": h, "colors": len(counts), "chromatic": len(chromatic)}
    for hexc in sys.argv[2:]:
        out[hexc] = counts.get(bytes.fromhex(hexc), 0)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
