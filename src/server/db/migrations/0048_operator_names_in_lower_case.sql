-- Sign-in looks a name up in lower case, and names are now chosen in lower case: one chosen with
-- capitals before ("Bob") could not sign in. Lowered, unless another name lowers to the same.
UPDATE "operators" AS o SET "username" = lower(o."username")
  WHERE o."username" <> lower(o."username")
    AND (SELECT count(*) FROM "operators" AS p WHERE lower(p."username") = lower(o."username")) = 1;
