class Point(val x: Int, val y: Int) {
    constructor(both: Int) : this(both, both)

    fun sum(): Int = x + y
}

data class Tag(val a: String, val b: String)

fun main() {
    val p = Point(1, 2)
    val q = Point(3)
    println(p.sum() + q.sum())
    val d = Tag("x", "y")
    val e = d.copy(b = "z")
    println(e.b)
}
