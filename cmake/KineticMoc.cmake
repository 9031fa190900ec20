# moc for Qt Test files, each file read alone. AUTOMOC runs moc with the target's include paths and
# definitions, so moc preprocesses every header a test includes (Qt Widgets, Eigen, the app's and
# the engine's headers): 1.2 s a file, and a fresh clone's build waited 30 s for the 66 app test
# files, cache or no cache (ccache does not cover moc). A test class is declared in its own file
# with slots that take nothing: moc needs none of the headers, and its output is the same
# byte for byte (compared on every app test file). With no include path it takes 0.05 s a file.
# Not for library headers: moc adds includes to its output for some of their signatures
# (panels/result_label.hpp's QTextCursor), which it can only find with the include paths.
#
# kinetic_moc_test_files(TARGET <target> SOURCES <files that #include "<name>.moc">)
function(kinetic_moc_test_files)
  cmake_parse_arguments(arg "" "TARGET" "SOURCES" ${ARGN})
  set(moc_dir ${CMAKE_CURRENT_BINARY_DIR}/${arg_TARGET}_moc)
  set(outputs "")
  foreach(source ${arg_SOURCES})
    get_filename_component(stem ${source} NAME_WE)
    set(output ${moc_dir}/${stem}.moc)
    add_custom_command(OUTPUT ${output}
                       COMMAND Qt6::moc ${source} -o ${output}
                       DEPENDS ${source} Qt6::moc
                       COMMENT "moc ${stem}.cpp" VERBATIM)
    list(APPEND outputs ${output})
  endforeach()
  set_source_files_properties(${outputs} PROPERTIES HEADER_FILE_ONLY ON GENERATED ON)
  target_sources(${arg_TARGET} PRIVATE ${outputs})
  target_include_directories(${arg_TARGET} PRIVATE ${moc_dir})
  set_target_properties(${arg_TARGET} PROPERTIES AUTOMOC OFF)
endfunction()
