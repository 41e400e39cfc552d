# kopt's companion files (src/core/install_layout.h) sit in the build folder in the layout of
# an installation, so that a built kopt runs from its build folder as an installed one runs from
# its prefix; the same list is what `cmake --install` copies.
#
#   kopt_companion_files(TARGET SOURCE_ROOT DESTINATION PATTERN...)
# copies every file under SOURCE_ROOT that a PATTERN (relative to SOURCE_ROOT) matches to
# DESTINATION/<its path under SOURCE_ROOT>, in the build folder at every build (TARGET) and
# under the prefix at install time.
function(kopt_companion_files target source_root destination)
  set(patterns)
  foreach(pattern ${ARGN})
    list(APPEND patterns ${source_root}/${pattern})
  endforeach()
  file(GLOB relatives LIST_DIRECTORIES false CONFIGURE_DEPENDS RELATIVE ${source_root} ${patterns})
  if(NOT relatives)
    message(FATAL_ERROR "kopt_companion_files(${target}): nothing in ${source_root} matches ${ARGN}")
  endif()
  set(copies)
  foreach(relative ${relatives})
    set(copy ${PROJECT_BINARY_DIR}/${destination}/${relative})
    add_custom_command(OUTPUT ${copy} COMMAND ${CMAKE_COMMAND} -E copy ${source_root}/${relative} ${copy}
                       DEPENDS ${source_root}/${relative} COMMENT "Placing ${destination}/${relative} beside kopt")
    list(APPEND copies ${copy})
    get_filename_component(folder ${destination}/${relative} DIRECTORY)
    install(FILES ${source_root}/${relative} DESTINATION ${folder})
  endforeach()
  add_custom_target(${target} ALL DEPENDS ${copies})
endfunction()
