#pragma once
// Close-name suggestions for error hints ("did you mean ...?").
#include <cstddef>
#include <string>
#include <vector>

namespace kinetic {

// Levenshtein distance (insertions, deletions, substitutions cost 1), case-insensitive.
std::size_t edit_distance(const std::string& a, const std::string& b);

// The candidates closest to `query`, best first: those containing the query (or contained in it,
// case-insensitive) and those within an edit distance of max(2, |query| / 3). At most
// max_results names; empty when nothing is close.
std::vector<std::string> closest_names(const std::string& query,
                                       const std::vector<std::string>& candidates,
                                       std::size_t max_results = 5);

// Up to this many candidates, a hint with nothing close lists them all.
inline constexpr std::size_t kListedWhole = 12;

// "did you mean 'a', 'b' or 'c'?" from closest_names(); when nothing is close, lists the
// candidates ("known names: ..."): all of them when there are at most kListedWhole, else the first
// max_results and how many more; "" when there are no candidates.
std::string suggestion_hint(const std::string& query, const std::vector<std::string>& candidates,
                            std::size_t max_results = 5);

// Joins names as "'a', 'b' or 'c'" (JSON keys: quote '"', as they are written in the file).
std::string quoted_list(const std::vector<std::string>& names,
                        const std::string& last_separator = " or ", char quote = '\'');

}  // namespace kinetic
