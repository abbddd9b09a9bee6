"""Opens .vtp files written by `ejecta export --particles --format vtk` with ParaView's XML PolyData
reader (run with pvpython) and prints, per file: points, vertex cells, the point arrays with their
component counts, the TimeValue, the density range and the first point. With a .pvd argument it
opens the series and prints its time steps. Exit status 1 if a file produced no points."""
import sys

from paraview import servermanager as sm
from paraview.simple import PVDReader, XMLPolyDataReader

failed = False
for path in sys.argv[1:]:
    if path.endswith(".pvd"):
        reader = PVDReader(FileName=path)
        print("series=%s timesteps=%s" % (path, ",".join("%.9g" % t for t in reader.TimestepValues)))
        continue
    reader = XMLPolyDataReader(FileName=[path])
    reader.UpdatePipeline()
    data = sm.Fetch(reader)
    pd = data.GetPointData()
    arrays = ",".join(
        "%s:%d" % (pd.GetArrayName(i), pd.GetArray(i).GetNumberOfComponents()) for i in range(pd.GetNumberOfArrays())
    )
    tv = data.GetFieldData().GetArray("TimeValue")
    rho = pd.GetArray("density")
    lo, hi = rho.GetRange() if rho else (0, 0)
    p0 = data.GetPoint(0) if data.GetNumberOfPoints() else (0, 0, 0)
    print("file=%s points=%d verts=%d arrays=%s time=%.17g density=%.9g..%.9g p0=%.9g,%.9g,%.9g"
          % (path, data.GetNumberOfPoints(), data.GetNumberOfVerts(), arrays, tv.GetValue(0) if tv else -1, lo, hi,
             p0[0], p0[1], p0[2]))
    failed = failed or data.GetNumberOfPoints() == 0
sys.exit(1 if failed else 0)
