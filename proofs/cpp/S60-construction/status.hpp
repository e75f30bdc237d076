#pragma once

class Status {
 public:
    Status();
    explicit Status(int code);
    int code() const { return code_; }

 private:
    int code_;
};

class Mutex {};

class MutexLock {
 public:
    explicit MutexLock(Mutex* mu) : mu_(mu) {}

 private:
    Mutex* mu_;
};
