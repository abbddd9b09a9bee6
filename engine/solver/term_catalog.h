#pragma once
// The registered terms of every model as Markdown (docs/terms.md, `ejecta --list-terms`): the
// models' recipes, then each term with its model, stage, citation, fields and keys
// (solver/model_recipes.h, solver/term_registry.h).
#include <string>

namespace ejecta {

std::string term_catalog_markdown();

}  // namespace ejecta
