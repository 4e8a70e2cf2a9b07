-- The claims of the background tasks (apps/api/src/tasks/task-runner.ts), one row each, written at a task's first
-- claim; the Power BI rounds' own table goes, its two rounds being tasks among the others.
CREATE TABLE "tarefas" (
	"nome" text PRIMARY KEY NOT NULL,
	"ocupada_ate" timestamp with time zone DEFAULT '-infinity' NOT NULL,
	"ocupada_por" text,
	"iniciada_em" timestamp with time zone,
	"terminada_em" timestamp with time zone
);
--> statement-breakpoint
DROP TABLE "rodadas_powerbi" CASCADE;