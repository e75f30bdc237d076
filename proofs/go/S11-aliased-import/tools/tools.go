package tools

func Shout(s string) string {
	return s + "!"
}
