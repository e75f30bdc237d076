import lib
import pkg.mod

lib.f()
pkg.mod.h()
