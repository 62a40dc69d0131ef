"""The designer's studies, each a job on the analysis below it: rule sets side by side and sweeps
(:mod:`.variants`), skill levels (:mod:`.skill`), how each level plays (:mod:`.style`), the skill
ladder's depth and luck (:mod:`.depth`), the balance search (:mod:`.balance`) and how exploitable a level
is (:mod:`.exploit`: every best responder against it)."""
