#pragma once

class Shape {
 public:
    virtual ~Shape() {}
    virtual int area() const = 0;
};

class Square : public Shape {
 public:
    explicit Square(int s);
    int area() const override;

 private:
    int s_;
};
