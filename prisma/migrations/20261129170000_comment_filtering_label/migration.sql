-- Comment filtering's history kind takes the glossary's name (docs/glossary.md, "label"); renaming
-- the enum value keeps every stored history row. The model CommentFilteringLabel keeps its table
-- "CommentFilterLabel" (@@map), so no table changes.
ALTER TYPE "AnnotationKind" RENAME VALUE 'COMMENT_FILTER' TO 'COMMENT_FILTERING_LABEL';
