#include "engine/core/string_similarity.hpp"

#include <algorithm>
#include <cctype>
#include <tuple>

namespace kinetic {

namespace {
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

std::size_t edit_distance(const std::string& a_in, const std::string& b_in) {
  const std::string a = lower(a_in), b = lower(b_in);
  std::vector<std::size_t> previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::vector<std::string> closest_names(const std::string& query,
                                       const std::vector<std::string>& candidates,
                                       std::size_t max_results) {
  const std::string q = lower(query);
  const std::size_t threshold = std::max<std::size_t>(2, q.size() / 3);
  // (rank class, distance, name): substring matches first, then by distance.
  std::vector<std::tuple<int, std::size_t, std::string>> scored;
  for (const std::string& candidate : candidates) {
    const std::string c = lower(candidate);
    const std::size_t distance = edit_distance(q, c);
    const bool substring = !q.empty() && (c.find(q) != std::string::npos ||
                                          (c.size() >= 2 && q.find(c) != std::string::npos));
    if (distance == 0) {
      scored.emplace_back(0, distance, candidate);
    } else if (substring) {
      scored.emplace_back(1, distance, candidate);
    } else if (distance <= threshold) {
      scored.emplace_back(2, distance, candidate);
    }
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> result;
  for (const auto& entry : scored) {
    if (result.size() >= max_results) break;
    if (std::find(result.begin(), result.end(), std::get<2>(entry)) == result.end())
      result.push_back(std::get<2>(entry));
  }
  return result;
}

std::string quoted_list(const std::vector<std::string>& names, const std::string& last_separator,
                        char quote) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += (i + 1 == names.size()) ? last_separator : ", ";
    out.append(1, quote).append(names[i]).append(1, quote);
  }
  return out;
}

std::string suggestion_hint(const std::string& query, const std::vector<std::string>& candidates,
                            std::size_t max_results) {
  if (candidates.empty()) return {};
  const std::vector<std::string> close = closest_names(query, candidates, max_results);
  if (!close.empty()) return "did you mean " + quoted_list(close) + "?";
  // A short list is given whole: "(and 4 more)" of nine names hid the one that was meant.
  const std::size_t listed = candidates.size() <= kListedWhole ? candidates.size() : max_results;
  std::vector<std::string> some(
      candidates.begin(),
      candidates.begin() + static_cast<std::ptrdiff_t>(std::min(listed, candidates.size())));
  std::string hint = "known names: " + quoted_list(some, ", ");
  if (candidates.size() > some.size())
    hint += " (and " + std::to_string(candidates.size() - some.size()) + " more)";
  return hint;
}

}  // namespace kinetic
