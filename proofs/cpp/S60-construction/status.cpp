#include "status.hpp"

Status::Status() : code_(0) {}

Status::Status(int code) : code_(code) {}
