from shapes import Holder, Square, build

square = build(Square)
square.area()
holder = Holder()
holder.fill(Square())
holder.item.area()
