open class Base {
    open fun greet() {
        println("Base.greet")
    }
}

class Child : Base() {
    override fun greet() {
        super.greet()
        println("Child.greet")
    }
}

fun main() {
    val c = Child()
    c.greet()
}
