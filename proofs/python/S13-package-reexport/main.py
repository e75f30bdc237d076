import shapes
from shapes import area

print(area(2))
print(shapes.area(3))
