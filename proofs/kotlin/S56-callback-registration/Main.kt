fun double(x: Int): Int = x * 2

fun twiceThen(x: Int, f: (Int) -> Int): Int = f(x)

fun main() {
    println(twiceThen(4, ::double))
}
