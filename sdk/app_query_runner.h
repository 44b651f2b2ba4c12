// `APP --drift-query`: reads one AppQuery (protocol/app_query.h) from `in`, answers it with the
// application and writes the AppAnswer to `out`. Whatever the application throws becomes an
// answer that is not ok, naming what went wrong. Returns 0, or 2 if the query did not decode.
#pragma once

#include <cstdio>

#include <drift/application.h>

namespace drift {

int answer_query(const Application& app, std::FILE* in, std::FILE* out);

}  // namespace drift
