object Printer {
    fun show(x: Int): String = "int $x"
    fun show(x: String): String = "string $x"
}

fun main() {
    println(Printer.show(1))
    println(Printer.show("a"))
}
