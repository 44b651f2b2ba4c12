#include "sdk/app_query_runner.h"

#include <exception>
#include <vector>

#include "protocol/app_query.h"

namespace drift {

namespace {

AppAnswer answer(const Application& app, AppQuery& query) {
  AppAnswer a;
  a.app = app.name();
  a.options = app.option_help();
  switch (query.kind) {
    case AppQueryKind::kInfo:
      break;
    case AppQueryKind::kValidate:
    case AppQueryKind::kSerial: {
      a.spec = query.spec;
      if (Status st = app.validate(a.spec); !st) {
        a.error = st.message();
        return a;
      }
      a.reduce_ops = app.reduction_ops();
      a.spare_tasks = app.spare_tasks(a.spec);
      a.memory_per_task = app.memory_per_task(a.spec);
      if (query.kind == AppQueryKind::kSerial) {
        auto outcome = app.run_serial(a.spec);
        if (!outcome) {
          a.error = outcome.error();
          return a;
        }
        a.checksum = outcome->checksum;
        a.details = outcome->details;
      }
      break;
    }
    case AppQueryKind::kCombine: {
      auto outcome = app.combine(query.spec, query.results);
      if (!outcome) {
        a.error = outcome.error();
        return a;
      }
      a.checksum = outcome->checksum;
      a.details = outcome->details;
      break;
    }
  }
  a.ok = true;
  return a;
}

}  // namespace

int answer_query(const Application& app, std::FILE* in, std::FILE* out) {
  std::vector<std::uint8_t> bytes;
  std::uint8_t buf[1 << 16];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, in)) > 0;) {
    bytes.insert(bytes.end(), buf, buf + n);
  }
  AppQuery query;
  if (Status st = decode_portable(bytes, query); !st) {
    std::fprintf(stderr, "%s --drift-query: the query does not decode: %s\n", app.name().c_str(),
                 st.message().c_str());
    return 2;
  }
  AppAnswer a;
  try {
    a = answer(app, query);
  } catch (const std::exception& e) {
    a.ok = false;
    a.error = e.what();
  }
  const std::vector<std::uint8_t> encoded = encode_portable(a);
  std::fwrite(encoded.data(), 1, encoded.size(), out);
  std::fflush(out);
  return 0;
}

}  // namespace drift
