# SPDX-License-Identifier: MIT
# Writes a help2man include file: the static sections of STATIC, then a [COMMANDS] section
# with each subcommand's own --help output, so that the man page lists every flag.
#   cmake -DCLI=<devicebench-cli> -DSTATIC=<file.h2m> -DOUTPUT=<out.h2m> -P man-commands.cmake
foreach(var CLI STATIC OUTPUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "man-commands.cmake: -D${var}=... is required")
  endif()
endforeach()

# The subcommands, as the top-level --help lists them under "Subcommands:" (CLI11's layout:
# two spaces, the name, then its description), so that a new one is documented too.
execute_process(COMMAND "${CLI}" --help OUTPUT_VARIABLE top RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${CLI} --help failed (${rc})")
endif()
string(REGEX REPLACE ".*\n[Ss][Uu][Bb][Cc][Oo][Mm][Mm][Aa][Nn][Dd][Ss]:\n" "" listing "${top}")
if(listing STREQUAL top)
  message(FATAL_ERROR "${CLI} --help lists no \"Subcommands:\"")
endif()
string(REGEX REPLACE "\n\n.*" "" listing "${listing}") # the listing ends at a blank line
string(REGEX MATCHALL "(^|\n)  [a-z][a-z0-9-]*" names "${listing}")
set(commands "")
foreach(name IN LISTS names)
  string(STRIP "${name}" name)
  list(APPEND commands "${name}")
endforeach()
if(NOT commands)
  message(FATAL_ERROR "${CLI} --help: no subcommand names found")
endif()

file(READ "${STATIC}" text)
string(APPEND text "\n[COMMANDS]\n")
foreach(command IN LISTS commands)
  execute_process(COMMAND "${CLI}" ${command} --help
                  OUTPUT_VARIABLE help RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${CLI} ${command} --help failed (${rc}): ${err}")
  endif()
  # roff: a backslash is written \e, a line starting with '.' or '\'' needs \& before it,
  # and '-' is written \- so that it is a real minus (copy-paste of flags works).
  string(REPLACE "\\" "\\e" help "${help}")
  string(REPLACE "-" "\\-" help "${help}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
  string(APPEND text ".SS ${command}\n.nf\n${help}.fi\n")
endforeach()
file(WRITE "${OUTPUT}" "${text}")
