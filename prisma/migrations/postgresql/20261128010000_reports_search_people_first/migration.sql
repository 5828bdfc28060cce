-- The reports search starts from people's names (hand-written; docs/decisions/0039-reports-search-people-first.md).
-- Prisma does not model these objects: the drift check ignores exactly them (HAND_WRITTEN_OBJECTS in
-- server/database/migrations.ts) and checks that they exist after the migrations ran.

-- Trigram indexes on the people's folded names: a search finds the few people a name fragment
-- matches without reading the organization's roster (and the students and candidates lists'
-- substring search uses them too). fastupdate off: with it, new names wait in a pending list of
-- up to 4 MB that every search reads until a vacuum merges it; after a roster import of 25,000
-- students that list made a lookup take 6 ms instead of 0.4 (docs/decisions/0039-reports-search-people-first.md). An import
-- now writes its names into the index as it goes.
CREATE INDEX "Student_searchName_trgm_idx" ON "Student" USING gin ("searchName" gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX "Candidate_searchName_trgm_idx" ON "Candidate" USING gin ("searchName" gin_trgm_ops) WITH (fastupdate = off);

-- Every form title an organization's results were captured with ("Submission"."formTitle"), kept by
-- the database whichever writer completes a result. Rows are never removed: the search only asks
-- whether a term could be inside one of these titles, and a title no result carries any more can
-- only send it to the general plan, never lose a match.
CREATE TABLE "SubmissionFormTitle" (
    "organizationId" TEXT NOT NULL,
    "formTitle" TEXT NOT NULL,

    CONSTRAINT "SubmissionFormTitle_pkey" PRIMARY KEY ("organizationId", "formTitle")
);

CREATE FUNCTION "Submission_form_title_keep"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "SubmissionFormTitle" ("organizationId", "formTitle")
    VALUES (NEW."organizationId", NEW."formTitle")
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END;
$$;

-- AFTER, so they see the title "Submission_form_title" (BEFORE) may have filled in, also for an
-- older writer's UPDATE that does not set "formTitle" itself. Only rows with a new title, or a
-- title in a new organization, call the function: the pending links of a bulk assignment have
-- none, and other updates keep theirs.
CREATE TRIGGER "Submission_form_title_keep_insert" AFTER INSERT ON "Submission"
    FOR EACH ROW WHEN (NEW."formTitle" IS NOT NULL) EXECUTE FUNCTION "Submission_form_title_keep"();
CREATE TRIGGER "Submission_form_title_keep_update" AFTER UPDATE ON "Submission"
    FOR EACH ROW WHEN (NEW."formTitle" IS NOT NULL AND (NEW."formTitle" IS DISTINCT FROM OLD."formTitle"
                       OR NEW."organizationId" IS DISTINCT FROM OLD."organizationId"))
    EXECUTE FUNCTION "Submission_form_title_keep"();

INSERT INTO "SubmissionFormTitle" ("organizationId", "formTitle")
SELECT DISTINCT "organizationId", "formTitle" FROM "Submission" WHERE "formTitle" IS NOT NULL;
