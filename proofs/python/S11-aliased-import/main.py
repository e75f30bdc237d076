from lib import f as g
import lib as a

g()
a.f()
a.g()
