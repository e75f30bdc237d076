fun area(w: Int): Int = w * w
fun area(w: Int, h: Int): Int = w * h
fun label(text: String, times: Int = 1): String = text.repeat(times)

fun main() {
    println(area(3))
    println(area(2, 5))
    println(label("ab"))
    println(label("ab", times = 2))
}
