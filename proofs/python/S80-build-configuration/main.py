import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from checker_types import Greeter
else:
    from runtime_types import Greeter

if sys.version_info < (3, 8):
    def greet():
        print("greet: before 3.8")
else:
    def greet():
        print("greet: 3.8 or later")

if sys.platform.startswith("win"):
    def where():
        print("where: windows")
else:
    def where():
        print("where: not windows")

try:
    from fast_impl import speed
except ImportError:
    from slow_impl import speed

Greeter().hello()
greet()
where()
speed()
