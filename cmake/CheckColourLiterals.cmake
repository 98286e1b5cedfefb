# SPDX-License-Identifier: MIT
# Fails when a colour is written in a source file under ui/ or app/: every
# colour lives in resources/ (styles/*.json, charts/palette.json) and is read through
# ui/theme/theme.h (theme::runColour, theme::colour, theme::palette).
#
#   cmake -DROOT=<source dir> -P cmake/CheckColourLiterals.cmake
#
# Looks for QColor( (any construction: use theme.h, or QColor::fromRgb in theme.cpp's parser),
# qRgb( / qRgba( / QRgb(, "#rrggbb", CSS colour names after "color:", and Qt's named colours
# (Qt::red, Qt::white, ...). Qt::transparent is allowed: it is no colour.
if(NOT ROOT)
  message(FATAL_ERROR "CheckColourLiterals: pass -DROOT=<source dir>")
endif()

set(_hex "[0-9a-fA-F]")
set(_named "red|green|blue|black|white|gray|darkGray|lightGray|yellow|cyan|magenta")
set(_named "${_named}|darkRed|darkGreen|darkBlue|darkCyan|darkMagenta|darkYellow|color0|color1")
set(_pattern "QColor\\(|qRgba?\\(|QRgb\\(|#${_hex}${_hex}${_hex}${_hex}${_hex}${_hex}")
set(_pattern "${_pattern}|[cC]olor: *[a-z]|Qt::(${_named})([^A-Za-z0-9_]|$)")

# The pattern itself is checked first, so that a broken edit of it cannot pass everything.
foreach(_sample "QColor(120, 120, 120)" "\"#b00020\"" "image.fill(Qt::white);"
                "Qt::darkGray)" "\"color: red;\"" "qRgb(1, 2, 3)")
  if(NOT _sample MATCHES "${_pattern}")
    message(FATAL_ERROR "CheckColourLiterals: the pattern misses the sample ${_sample}")
  endif()
endforeach()
foreach(_sample "theme::runColour(run.number)" "Qt::transparent" "QColor::fromRgb(r, g, b)"
                "#include <QColor>" "\"color: %1;\"" "Qt::whiteSpace")
  if(_sample MATCHES "${_pattern}")
    message(FATAL_ERROR "CheckColourLiterals: the pattern wrongly matches ${_sample}")
  endif()
endforeach()

file(GLOB_RECURSE _files LIST_DIRECTORIES false
     "${ROOT}/ui/*.cpp" "${ROOT}/ui/*.h" "${ROOT}/app/*.cpp" "${ROOT}/app/*.h")
if(NOT _files)
  message(FATAL_ERROR "CheckColourLiterals: no source files under ${ROOT}/ui or ${ROOT}/app")
endif()
set(_found "")
foreach(_file IN LISTS _files)
  file(STRINGS "${_file}" _lines REGEX "${_pattern}")
  foreach(_line IN LISTS _lines)
    file(RELATIVE_PATH _shown "${ROOT}" "${_file}")
    string(STRIP "${_line}" _line)
    string(APPEND _found "  ${_shown}: ${_line}\n")
  endforeach()
endforeach()
list(LENGTH _files _count)
if(_found)
  message(FATAL_ERROR "Colour literals in ui/ or app/ (move them to resources/ and read them "
                      "through ui/theme/theme.h):\n${_found}")
endif()
message(STATUS "CheckColourLiterals: no colour literal in ${_count} files under ui/ and app/")
