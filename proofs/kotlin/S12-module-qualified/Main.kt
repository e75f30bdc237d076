fun main() {
    println(lib.greet())
    println(lib.Tools.version())
}
