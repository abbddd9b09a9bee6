"""Opens Ejecta XDMF sidecars with ParaView's two XDMF readers (run with pvpython) and prints, per
reader and file: timesteps, points of the last step, its point arrays with component counts, and the
density range. Exit status 1 if a reader produced no points.

The readers stand on two libraries: "XDMF Reader" on Xdmf2 (the library VisIt's Xdmf plugin is built
on; VisIt itself has no Debian package) and "Xdmf3ReaderS" on Xdmf3."""
import os
import sys

from paraview import servermanager as sm
from paraview.simple import XDMFReader, Xdmf3ReaderS

READERS = {"xdmf2": XDMFReader, "xdmf3": Xdmf3ReaderS}
# EJECTA_PV_READERS=xdmf2 limits the run to some readers: ParaView 5.11's Xdmf3 readers crash on the
# 1D geometry (X_Y with an inline row of zeros), which its Xdmf2 reader opens.
wanted = os.environ.get("EJECTA_PV_READERS")
if wanted:
    READERS = {k: v for k, v in READERS.items() if k in wanted.split(",")}

failed = False
for name, make in READERS.items():
    for path in sys.argv[1:]:
        reader = make(FileName=[path]) if name == "xdmf3" else make(FileNames=[path])
        times = list(reader.TimestepValues) if reader.TimestepValues else [0.0]
        reader.UpdatePipeline(times[-1])
        data = sm.Fetch(reader)
        pd = data.GetPointData()
        arrays = ",".join(
            "%s:%d" % (pd.GetArrayName(i), pd.GetArray(i).GetNumberOfComponents()) for i in range(pd.GetNumberOfArrays())
        )
        rho = pd.GetArray("density")
        lo, hi = rho.GetRange() if rho else (0, 0)
        print("reader=%s file=%s timesteps=%d points=%d arrays=%s density=%g..%g"
              % (name, path, len(times), data.GetNumberOfPoints(), arrays, lo, hi))
        failed = failed or data.GetNumberOfPoints() == 0
sys.exit(1 if failed else 0)
