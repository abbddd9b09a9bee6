"""Opens an Ejecta XDMF sidecar with ParaView's own XDMF reader (run with pvpython) and prints, per
file: timesteps, points of the last step, its point arrays with component counts, and the density
range. Exit status 1 if the reader produced no points."""
import sys

from paraview import servermanager as sm
from paraview.simple import XDMFReader

for path in sys.argv[1:]:
    reader = XDMFReader(FileNames=[path])
    times = list(reader.TimestepValues) if reader.TimestepValues else [0.0]
    reader.UpdatePipeline(times[-1])
    data = sm.Fetch(reader)
    pd = data.GetPointData()
    arrays = ",".join(
        "%s:%d" % (pd.GetArrayName(i), pd.GetArray(i).GetNumberOfComponents()) for i in range(pd.GetNumberOfArrays())
    )
    rho = pd.GetArray("density")
    lo, hi = rho.GetRange() if rho else (0, 0)
    print("file=%s timesteps=%d points=%d arrays=%s density=%g..%g" % (path, len(times), data.GetNumberOfPoints(), arrays, lo, hi))
    if data.GetNumberOfPoints() == 0:
        sys.exit(1)
