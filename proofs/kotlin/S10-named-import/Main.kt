import lib.greet
import lib.Tools

fun main() {
    println(greet())
    println(Tools.version())
}
