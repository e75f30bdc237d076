def speed():
    print("slow_impl.speed")
