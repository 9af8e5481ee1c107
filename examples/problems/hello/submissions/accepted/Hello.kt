fun main() {
    val name = readLine()!!.trim()
    println("Hello, $name!")
}
