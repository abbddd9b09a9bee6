#!/usr/bin/env python3
"""Independent check of an Ejecta recording with h5py (no Ejecta code involved).

usage: io_check.py FILE.h5 [--dataset FRAME_INDEX NAME] [--xdmf FILE.xdmf] [--xdmf-prefix FILE.xdmf]

Prints key=value lines:
  format=... version=...      root attributes
  complete_frames=N partial_frames=M
  crc32=XXXXXXXX shape=... dtype=...   for --dataset (CRC-32 of the raw little-endian bytes, row-major)
  xdmf_ok grids=G dataitems=D          for --xdmf, after checking every HDF DataItem reference
                                       (--xdmf-prefix: the sidecar may list only the first G frames,
                                       as after a kill between a frame and its sidecar rewrite)
Exits 1 with a message on stderr at the first inconsistency, 2 when h5py is missing.
"""
import os
import sys
import zlib
import xml.etree.ElementTree as ET

try:
    import h5py
    import numpy as np
except ImportError as e:  # the C++ test skips on exit status 2
    print("io_check: %s" % e, file=sys.stderr)
    sys.exit(2)


def fail(msg):
    print("io_check: " + msg, file=sys.stderr)
    sys.exit(1)


def text(v):
    return v.decode("utf-8") if isinstance(v, bytes) else str(v)


def complete_frames(f):
    done, partial = [], []
    for name in sorted(f["frames"].keys()):
        g = f["frames"][name]
        ok = int(g.attrs.get("complete", 0)) == 1
        n = int(g.attrs.get("particles", -1))
        if ok:
            ok = all(isinstance(g[k], h5py.Dataset) and g[k].shape[0] == n for k in g.keys())
        (done if ok else partial).append(name)
    return done, partial


NUMBER_TYPES = {("Float", 4): "f4", ("Float", 8): "f8", ("UChar", 1): "u1", ("UInt", 4): "u4"}


def check_xdmf(h5_path, xdmf_path, done, f, prefix=False):
    root = ET.parse(xdmf_path).getroot()
    if root.tag != "Xdmf":
        fail("root element is %s, not Xdmf" % root.tag)
    coll = root.find("Domain/Grid")
    if coll is None or coll.get("CollectionType") != "Temporal":
        fail("no temporal collection")
    grids = coll.findall("Grid")
    if len(grids) != len(done) and not (prefix and len(grids) < len(done)):
        fail("%d grids for %d complete frames" % (len(grids), len(done)))
    items = 0
    base = os.path.dirname(os.path.abspath(xdmf_path))
    for grid, name in zip(grids, done):
        g = f["frames"][name]
        t = float(grid.find("Time").get("Value"))
        if t != float(g.attrs["time"]):
            fail("grid %s time %r != %r" % (name, t, float(g.attrs["time"])))
        n = int(grid.find("Topology").get("NumberOfElements"))
        if n != int(g.attrs["particles"]):
            fail("grid %s has %d elements, frame has %d particles" % (name, n, int(g.attrs["particles"])))
        for item in grid.iter("DataItem"):
            dims = tuple(int(x) for x in item.get("Dimensions").split())
            if item.get("Format") == "XML":
                if len(item.text.split()) != int(np.prod(dims)):
                    fail("inline DataItem holds the wrong number of values")
                continue
            if item.get("Format") != "HDF":
                fail("unexpected DataItem format %s" % item.get("Format"))
            fname, _, dpath = item.text.strip().partition(":")
            if os.path.join(base, fname) != os.path.abspath(h5_path):
                fail("DataItem refers to %s, not %s" % (fname, os.path.basename(h5_path)))
            if dpath not in f:
                fail("DataItem path %s does not exist" % dpath)
            ds = f[dpath]
            if ds.shape != dims:
                fail("%s has shape %s, DataItem says %s" % (dpath, ds.shape, dims))
            want = NUMBER_TYPES.get((item.get("NumberType"), int(item.get("Precision"))))
            if want is None or np.dtype(want) != ds.dtype.newbyteorder("<"):
                fail("%s is %s, DataItem says %s/%s" % (dpath, ds.dtype, item.get("NumberType"), item.get("Precision")))
            items += 1
    print("xdmf_ok grids=%d dataitems=%d" % (len(grids), items))


def main(argv):
    if len(argv) < 2:
        fail(__doc__)
    h5_path = argv[1]
    with h5py.File(h5_path, "r") as f:
        print("format=%s version=%d" % (text(f.attrs["format"]), int(f.attrs["format_version"])))
        done, partial = complete_frames(f)
        print("complete_frames=%d partial_frames=%d" % (len(done), len(partial)))
        i = 2
        while i < len(argv):
            if argv[i] == "--dataset":
                k, name = int(argv[i + 1]), argv[i + 2]
                ds = f["frames"][done[k]][name]
                a = np.ascontiguousarray(ds[...])
                raw = a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes()
                print("crc32=%08x shape=%s dtype=%s" % (zlib.crc32(raw) & 0xFFFFFFFF,
                                                        "x".join(str(s) for s in a.shape), a.dtype.str))
                i += 3
            elif argv[i] in ("--xdmf", "--xdmf-prefix"):
                check_xdmf(h5_path, argv[i + 1], done, f, prefix=argv[i] == "--xdmf-prefix")
                i += 2
            else:
                fail("unknown argument " + argv[i])


if __name__ == "__main__":
    main(sys.argv)
