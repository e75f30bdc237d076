class Wheel {
    fun spin(): String = "spinning"
}

class Bike {
    fun front(): Wheel = Wheel()
}

fun main() {
    val b = Bike()
    println(b.front().spin())
}
