class Engine {
    fun start(): String = "vroom"
}

class Car(private val engine: Engine) {
    private val spare: Engine = Engine()

    fun drive(): String {
        return engine.start() + " " + this.spare.start()
    }
}

fun main() {
    println(Car(Engine()).drive())
}
