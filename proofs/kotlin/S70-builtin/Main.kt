fun main() {
    val xs = listOf(3, 1, 2)
    println(xs.sorted())
    println(maxOf(4, 7))
    println(xs.map { it * 2 })
}
