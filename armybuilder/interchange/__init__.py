"""Exchange formats: our JSON list format and BattleScribe data (catalogues, rosters)."""
