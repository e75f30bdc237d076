from pkg.b import g
from pkg.sub.d import k

g()
k()
