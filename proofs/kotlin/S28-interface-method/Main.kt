interface Shape {
    fun area(): Double
    fun describe(): String = "area " + area()
}

class Square(private val side: Double) : Shape {
    override fun area(): Double = side * side
}

fun show(s: Shape): String = s.describe()

fun main() {
    val sq: Shape = Square(2.0)
    println(show(sq))
    println(sq.area())
}
