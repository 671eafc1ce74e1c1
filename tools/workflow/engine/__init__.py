"""The process engine: BPMN 2.0 processes (Camunda-flavoured) deployed, versioned and run on SpiffWorkflow.

    from tools.workflow.engine import SpiffEngine, create_tables, seed
    engine = SpiffEngine()
    with db.begin() as conn:
        create_tables(conn); seed(engine, conn)
        started = engine.start(conn, "process_qingjia", requester="user_1",
                               data={"days": 5, "reason": "...", "nextUserId": "user_2"})

`interface` holds the `ProcessEngine` Protocol and `records` the records it returns; `spiff_engine` the `SpiffEngine`
that implements it, over a module per concern (`deployments`, `running`, `tasks`, `decisions`, `lifecycle`: send
back, resubmit, withdraw and the timeline, `views`); `changes` the records of that life; `tables` the engine's
tables; `validation` the deploy-time checks; `processes/` (beside this package) the seed BPMN files.
"""

from tools.workflow.engine.changes import (
    AnyEvent,
    Happened,
    RequestReturned,
    Resubmitted,
    Returned,
    TaskWithdrawn,
    Withdrawn,
)
from tools.workflow.engine.errors import DeployError, EngineError, FormError
from tools.workflow.engine.interface import ProcessEngine
from tools.workflow.engine.records import (
    Choice,
    Completed,
    Decision,
    Definition,
    Deployed,
    DiagramMarks,
    Event,
    FormField,
    InstanceEnded,
    InstanceView,
    NextStep,
    Preview,
    Started,
    StepDef,
    TaskReady,
    TaskView,
)
from tools.workflow.engine.seed import PROCESSES_DIR, SEED_FILES, deploy_seed_processes, seed
from tools.workflow.engine.spiff_engine import (
    SpiffEngine,
    format_instance_id,
    format_task_id,
    parse_instance_id,
    parse_task_id,
)
from tools.workflow.engine.tables import (
    ENGINE_TABLES,
    SEED_GROUPS,
    create_tables,
    groups_of,
    members_of,
    metadata,
    seed_groups,
    set_group,
)

__all__ = [
    "ENGINE_TABLES",
    "AnyEvent",
    "Happened",
    "RequestReturned",
    "Resubmitted",
    "Returned",
    "TaskWithdrawn",
    "Withdrawn",
    "PROCESSES_DIR",
    "SEED_FILES",
    "SEED_GROUPS",
    "Choice",
    "Completed",
    "Decision",
    "Definition",
    "DeployError",
    "Deployed",
    "DiagramMarks",
    "EngineError",
    "Event",
    "FormError",
    "FormField",
    "InstanceEnded",
    "InstanceView",
    "NextStep",
    "Preview",
    "ProcessEngine",
    "SpiffEngine",
    "Started",
    "StepDef",
    "TaskReady",
    "TaskView",
    "create_tables",
    "deploy_seed_processes",
    "format_instance_id",
    "format_task_id",
    "groups_of",
    "members_of",
    "metadata",
    "parse_instance_id",
    "parse_task_id",
    "seed",
    "seed_groups",
    "set_group",
]
