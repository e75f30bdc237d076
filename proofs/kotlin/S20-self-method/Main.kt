class Counter {
    private var count = 0

    fun bump(): Int {
        count += 1
        return count
    }

    fun twice(): Int {
        bump()
        return this.bump()
    }
}

fun main() {
    val c = Counter()
    println(c.twice())
}
