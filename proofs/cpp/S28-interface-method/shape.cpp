#include "shape.hpp"

Square::Square(int s) : s_(s) {}

int Square::area() const {
    return s_ * s_;
}
