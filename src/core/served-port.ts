/**
 * What one module offers others through `Deps`: modules are encapsulated plugins, so a module that needs
 * another's service reaches it through a narrow port built before the modules (in `server.ts`) and
 * served by the owning module when it registers. A call before that is a wiring error.
 */
export class ServedPort<Service> {
  private server: Service | undefined;

  constructor(private readonly owner: string) {}

  serve(server: Service): void {
    this.server = server;
  }

  protected async served(): Promise<Service> {
    if (!this.server) throw new Error(`the ${this.owner} module is not loaded`);
    return this.server;
  }
}
