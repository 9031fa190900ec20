# Warnings, sanitizers and ccache for every kinetic target.
find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${CCACHE_PROGRAM})
endif()

# No -Wnull-dereference: it reports false positives inside Eigen at -O2.
add_library(kinetic_warnings INTERFACE)
target_compile_options(kinetic_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
  -Wcast-align -Woverloaded-virtual -Wimplicit-fallthrough)
if(KINETIC_WERROR)
  target_compile_options(kinetic_warnings INTERFACE -Werror)
endif()
# GCC 12 at -O3 reports `"literal" + std::string` as an overlapping memcpy (GCC bug 105329, a false
# positive inside libstdc++): it broke `make bench`'s release build. Only the -O3 build is spared.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(kinetic_warnings INTERFACE $<$<CONFIG:Release>:-Wno-restrict>)
endif()

# UndefinedBehaviorSanitizer without its per-access checks (null, alignment, vptr, object-size,
# pointer-overflow): through Eigen's templates they made a sanitized compile four times as slow
# (planner.cpp at -O1: 210 user-s with them, 52 without, 37 for ASan alone) and the CI's cold build
# ran out of time. ASan still stops on a null or out-of-bounds access; the arithmetic checks stay,
# and float-cast-overflow is added (a NaN or 1e10 converted to int).
if(KINETIC_SANITIZE)
  set(KINETIC_UBSAN_SKIP null,alignment,vptr,object-size,pointer-overflow)
  add_compile_options(-fsanitize=address,undefined,float-cast-overflow -fno-sanitize=${KINETIC_UBSAN_SKIP}
                      -fno-omit-frame-pointer -fno-sanitize-recover=undefined,float-cast-overflow)
  add_link_options(-fsanitize=address,undefined)
endif()

# The fuzz preset (clang): coverage for libFuzzer in everything built; the fuzz targets add
# -fsanitize=fuzzer (its main) themselves.
if(KINETIC_LIBFUZZER)
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# kinetic_target(<target>): apply the project's warning set to a target we own.
function(kinetic_target target)
  target_link_libraries(${target} PRIVATE $<BUILD_INTERFACE:kinetic_warnings>)
endfunction()
