int scale(int x) {
    return x * 6;
}
