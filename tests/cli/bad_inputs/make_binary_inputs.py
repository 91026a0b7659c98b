#!/usr/bin/env python3
"""Writes the binary bad inputs of this directory from binary_base.trace.

    python3 make_binary_inputs.py PATH/TO/agxsim

agxsim converts the base trace to the binary format (traces/FORMAT.md,
"Binary trace format"); each input then changes one thing in it and fixes
the checksums, so that the reader gets past them to the field in question.
Needs the zstd command. The files are committed; this records how they were
made.
"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER, FOOTER, INDEX_FIXED, CHUNK_ENTRY, SECTION_ENTRY = 16, 32, 48, 24, 24


def split(data):
    index_offset, index_bytes, _, _ = struct.unpack_from("<QQII", data, len(data) - FOOTER)
    return data[:index_offset], bytearray(data[index_offset:index_offset + index_bytes])


def join(body, index):
    footer = struct.pack("<QQII", len(body), len(index), zlib.crc32(bytes(index)), 2)
    return bytes(body) + bytes(index) + footer + b"AGXTEND\n"


def with_kernel_name(data, name):
    body, index = split(data)
    old = struct.unpack_from("<I", index, 28)[0]
    struct.pack_into("<I", index, 28, len(name))
    return join(body, index[:INDEX_FIXED] + name + index[INDEX_FIXED + old:])


def zstd(args, data):
    return subprocess.run(["zstd", "-q", "-c"] + args, input=data, check=True,
                          stdout=subprocess.PIPE).stdout


def with_operand_kind_0(data):
    """The last source operand of the first record gets kind 0 (none)."""
    body, index = split(data)
    chunks = struct.unpack_from("<Q", index, 40)[0]
    sections = struct.unpack_from("<I", index, 24)[0]
    name_bytes, mnemonics = struct.unpack_from("<II", index, 28)
    at = INDEX_FIXED + name_bytes
    for _ in range(mnemonics):
        at += 1 + index[at]
    at += sections * SECTION_ENTRY
    assert chunks == 1
    offset, frame_bytes, decoded_bytes, _, _ = struct.unpack_from("<QIIII", index, at)
    decoded = bytearray(zstd(["-d"], bytes(body[offset:offset + frame_bytes])))
    assert len(decoded) == decoded_bytes
    # tag, counts, mnemonic id, pc delta, line delta (small varints), then
    # operands of one byte and a one-byte first half each: fadd32 r0, r0, r1.
    tag, counts = decoded[0], decoded[1]
    assert tag == 0x40 and counts == 0x21, (tag, counts)
    last_source = 5 + 2 * 2
    assert decoded[last_source] & 3 == 1  # a register
    decoded[last_source] &= ~3
    frame = zstd([], bytes(decoded))
    struct.pack_into("<QIII", index, at, offset, len(frame), decoded_bytes,
                     zlib.crc32(bytes(decoded)))
    return join(body[:offset] + frame + body[offset + frame_bytes:], index)


def main():
    agxsim = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "base.agxb")
        subprocess.run([agxsim, "trace", "convert", os.path.join(HERE, "binary_base.trace"), out],
                       check=True)
        base = open(out, "rb").read()
    inputs = {
        "operand_kind0.agxb": with_operand_kind_0(base),
        "kernel_name_blank.agxb": with_kernel_name(base, b"bad name"),
        "kernel_name_newline.agxb": with_kernel_name(base, b"bad\nname"),
        "kernel_name_hash.agxb": with_kernel_name(base, b"bad#name"),
        "kernel_name_long.agxb": with_kernel_name(base, b"k" * 65524),
    }
    for name, data in inputs.items():
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
