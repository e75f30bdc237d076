class Circle(private val r: Double) {
    fun area(): Double = 3.0 * r * r
}

fun report(c: Circle): Double {
    return c.area()
}

fun main() {
    println(report(Circle(2.0)))
}
