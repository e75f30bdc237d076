import lib.greet as hello
import lib.Tools as T

fun main() {
    println(hello())
    println(T.version())
}
